// The one request checker: whether a request is one the spec allows for its operation. Path, query and header
// parameters are checked coerced from text to their declared types (and given their documented defaults), a JSON body
// as sent; a query parameter the operation does not define is named apart. The gateway refuses what fails (400
// problems); `lrg drift` reports it as the software's departure from the spec. Compiled once per operation.
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { createValidator } from "./check.js";
import type { SpecNode } from "./documents.js";
import type { Operation, Parameter } from "./reader.js";

/** One member of a request that the spec does not allow: the schema keyword that failed, words, a JSON pointer. */
export interface RequestIssue {
  type: string;
  detail: string;
  /** Where: `/path/...`, `/query/...`, `/headers/...` (names in lower case) or `/body/...`. */
  pointer: string;
}

/** A request as received: path parameters by name, the query, headers by lower-case name, the parsed JSON body. */
export interface ReceivedRequest {
  params: unknown;
  query: unknown;
  headers: unknown;
  /** The JSON body, or undefined when none was sent. */
  body: unknown;
}

/** What the check of one request found, with the request as validated (parameters coerced and defaulted). */
export interface RequestCheck {
  /** Query parameters the operation does not define. */
  unknownQuery: string[];
  /** Every other member that fails its schema (empty when the request is allowed). */
  issues: RequestIssue[];
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

// Parameters arrive as strings and are coerced to their declared types, with their documented defaults (status NEW,
// limit 100); a body is taken as sent, so that a partial update changes only what it names.
const parameterAjv = createValidator({ coerceTypes: true, useDefaults: true });
const bodyAjv = createValidator();

/** The issues of a failed validation, each with its pointer under `location` (`path`, `query`, `headers`, `body`). */
export function issuesOf(errors: ErrorObject[] | null | undefined, location: string): RequestIssue[] {
  return (errors ?? []).map((error) => {
    const missing =
      error.keyword === "required" ? `/${String((error.params as { missingProperty: string }).missingProperty)}` : "";
    return {
      type: error.keyword,
      detail: `${error.instancePath || location} ${error.message ?? "is invalid"}`.trim(),
      pointer: `/${location}${error.instancePath}${missing}`,
    };
  });
}

function objectSchema(parameters: Parameter[], lowerCaseNames: boolean): SpecNode {
  const name = (p: Parameter) => (lowerCaseNames ? p.name.toLowerCase() : p.name);
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [name(p), p.schema])),
    required: parameters.filter((p) => p.required).map(name),
  };
}

/**
 * Compiles, once, the check of one operation's requests from the spec: path, query and header parameters and the
 * JSON body. The check never throws: it answers what it found and the request as validated.
 */
export function compileRequestCheck(operation: Operation): (request: ReceivedRequest) => RequestCheck {
  const byLocation = (location: Parameter["in"]) => operation.parameters.filter((p) => p.in === location);
  const known = new Set(byLocation("query").map((p) => p.name));
  const validatePath = parameterAjv.compile(objectSchema(byLocation("path"), false));
  const validateQuery = parameterAjv.compile(objectSchema(byLocation("query"), false));
  const validateHeaders = parameterAjv.compile(objectSchema(byLocation("header"), true));
  const jsonSchema = operation.requestBody?.content.get("application/json");
  const validateBody: ValidateFunction | undefined = jsonSchema ? bodyAjv.compile(jsonSchema) : undefined;
  const bodyRequired = operation.requestBody?.required === true;

  return (request) => {
    const query = { ...(request.query as Record<string, unknown>) };
    const unknownQuery = Object.keys(query).filter((name) => !known.has(name));
    for (const name of unknownQuery) delete query[name];
    const params = { ...(request.params as Record<string, unknown>) };
    const headers = { ...(request.headers as Record<string, unknown>) };
    const issues: RequestIssue[] = [];
    if (!validatePath(params)) issues.push(...issuesOf(validatePath.errors, "path"));
    if (!validateQuery(query)) issues.push(...issuesOf(validateQuery.errors, "query"));
    if (!validateHeaders(headers)) issues.push(...issuesOf(validateHeaders.errors, "headers"));
    // The body is checked as sent, not copied: its validator neither coerces nor fills in defaults.
    const body = request.body;
    if (validateBody) {
      if (body === undefined) {
        if (bodyRequired)
          issues.push({ type: "required", detail: "a JSON request body is required", pointer: "/body" });
      } else if (!validateBody(body)) issues.push(...issuesOf(validateBody.errors, "body"));
    }
    return { unknownQuery, issues, params, query, body };
  };
}

/**
 * Compiles the check of a signed address (an operation without credentials): only that the query members the spec
 * requires are there. Their values, like the rest of the address, are the signature's to judge.
 */
export function compileSignedAddressCheck(operation: Operation): (request: ReceivedRequest) => RequestCheck {
  const required = operation.parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name);
  const validatePresence = parameterAjv.compile({ type: "object", required });
  return (request) => {
    const query = request.query as Record<string, unknown>;
    const issues = validatePresence(query) ? [] : issuesOf(validatePresence.errors, "query");
    return { unknownQuery: [], issues, params: request.params as Record<string, unknown>, query, body: request.body };
  };
}

/** The check of an operation's requests: of its signed address when it takes no credentials, else of every member. */
export function compileRequestCheckOf(operation: Operation): (request: ReceivedRequest) => RequestCheck {
  return operation.security === "none" ? compileSignedAddressCheck(operation) : compileRequestCheck(operation);
}
