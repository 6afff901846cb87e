// Whether an answer the fuzzer got is one the spec documents. The suite's response checker does the work for a
// request that addresses an operation; on top of it, what only a fuzzer sends needs: routes no operation answers
// (404 `404-02` or 405), path parameters the router may not take, HEAD (no body to check), and a problem's
// `status` and `code` held to the catalogue.
import { mediaTypeOf, responseViolations, schemaViolations } from "../conformance.js";
import { componentSchema, operationFor, problemCodes, type OperationInfo } from "../spec.js";

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
  /** The operation the request was drawn for: with `pathMayMiss`, its answers are acceptable too. */
  intended?: OperationInfo | undefined;
}

const problemSchema = componentSchema("Problem");

/**
 * The operation a request addresses (HEAD addresses the GET of its path), or undefined for an unmatched route. An
 * empty segment still reaches the operation whose parameter it stands in (the router takes it as an empty value).
 */
export function addressed(method: string, pathname: string): OperationInfo | undefined {
  const wanted = method.toUpperCase() === "HEAD" ? "GET" : method;
  return operationFor(wanted, pathname) ?? operationFor(wanted, pathname.replace(/\/(?=\/|$)/g, "/-"));
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) as unknown };
  } catch {
    return { ok: false };
  }
}

function checkProblem(status: number, json: unknown): string[] {
  const problem = json as { status?: unknown; code?: unknown };
  const found: string[] = [];
  if (problem.status !== status) found.push(`problem status ${String(problem.status)} differs from the HTTP status ${status}`);
  if (typeof problem.code === "string") {
    const catalogued = problemCodes[problem.code]?.status;
    if (catalogued === undefined) found.push(`problem code ${problem.code} is not in x-lrg-problem-codes`);
    else if (catalogued !== status) found.push(`problem code ${problem.code} is catalogued as ${catalogued}, answered as ${status}`);
  }
  return found;
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : value);

function checkProblemAnswer(answer: Answer, code: string | undefined, head: boolean): string[] {
  if (mediaTypeOf(headerText(answer.headers["content-type"])) !== "application/problem+json") {
    return [`${answer.status} answered as ${String(answer.headers["content-type"])}, not application/problem+json`];
  }
  if (head) return []; // an answer to HEAD has no body
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return [`${answer.status} problem body is not JSON`];
  const found = [...schemaViolations(problemSchema, parsed.value), ...checkProblem(answer.status, parsed.value)];
  const answeredCode = (parsed.value as { code?: unknown }).code;
  if (code !== undefined && answeredCode !== code) found.push(`expected problem code ${code}, got ${String(answeredCode)}`);
  return found;
}

/** An unmatched route must answer 404 (`404-02`) or 405, as a problem. */
function checkUnmatched(answer: Answer, head: boolean): string[] {
  if (answer.status !== 404 && answer.status !== 405) return [`an unmatched route answered ${answer.status}, not 404-02 or 405`];
  return checkProblemAnswer(answer, answer.status === 404 ? "404-02" : undefined, head);
}

/** HEAD: the status and the content type are the GET's; there is no body to check. */
function checkHead(operation: OperationInfo, answer: Answer): string[] {
  const response = operation.responses[String(answer.status)];
  if (response === undefined) return [`status ${answer.status} is not documented for ${operation.operationId}`];
  const content = Object.keys((response["content"] ?? {}) as Record<string, unknown>);
  const mediaType = mediaTypeOf(headerText(answer.headers["content-type"]));
  return content.length === 0 || content.includes(mediaType) ? [] : [`${answer.status} answered as ${mediaType || "(no content type)"}, documented ${content.join(", ")}`];
}

/**
 * The ways an answer departs from the spec (empty when it conforms): what the suite's checker finds for the
 * operation addressed, an unmatched route answered other than 404 `404-02` or 405, and a problem whose `status`
 * or `code` disagree with the answer or the catalogue.
 */
export function violationsOf(asked: Asked, answer: Answer): string[] {
  const head = asked.method.toUpperCase() === "HEAD";
  const operation = addressed(asked.method, asked.pathname) ?? (asked.pathMayMiss === true ? asked.intended : undefined);
  if (operation === undefined) return checkUnmatched(answer, head);
  if (operation.responses[String(answer.status)] === undefined && asked.pathMayMiss === true && answer.status === 404) return checkProblemAnswer(answer, "404-02", head);
  if (head) return checkHead(operation, answer);
  const headers = Object.fromEntries(Object.entries(answer.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, headerText(value) as string]])));
  const mediaType = mediaTypeOf(headers["content-type"]);
  const parsed = mediaType.endsWith("json") && answer.body.length > 0 ? parseJson(answer.body) : undefined;
  if (parsed !== undefined && !parsed.ok) return [`${answer.status} body is not JSON: ${answer.body.subarray(0, 80).toString("utf8")}`];
  const body = parsed?.ok === true ? parsed.value : answer.body.length > 0 ? answer.body.toString("utf8") : undefined;
  const found = responseViolations(operation, { status: answer.status, headers, body, bytes: answer.body });
  if (found.length === 0 && mediaType === "application/problem+json") found.push(...checkProblem(answer.status, body));
  return found;
}
