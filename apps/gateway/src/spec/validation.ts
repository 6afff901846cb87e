import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Problem, schemaMismatch, type ValidationIssue } from "../problems.js";
import type { Operation as OperationSpec, Parameter, SpecNode } from "@lrg/spec";

/** What a route receives once its request has passed the spec's schemas (query coerced to declared types). */
export interface ValidatedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

function createAjv(coerceTypes: boolean): Ajv2020 {
  // Parameters get their documented defaults (status NEW, limit 100); a body is taken as sent, so that a partial
  // update changes only what it names.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes,
    useDefaults: coerceTypes,
    validateFormats: true,
  });
  addFormats.default(ajv);
  return ajv;
}

// Parameters arrive as strings and are coerced to their declared types; bodies are checked as sent.
const parameterAjv = createAjv(true);
const bodyAjv = createAjv(false);

function issuesOf(errors: ErrorObject[] | null | undefined, location: string): ValidationIssue[] {
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
 * Compiles, once, the validators of one operation from the bundled spec: path, query and header parameters and
 * the JSON body. The returned function throws a 400 Problem (code 400-02, or 400-04 for an undefined query
 * parameter) listing every failing member, or answers the validated, coerced request.
 */
export function compileRequestValidator(
  spec: OperationSpec,
): (request: { params: unknown; query: unknown; headers: unknown; body: unknown }) => ValidatedRequest {
  const parameters = spec.parameters;
  const byLocation = (location: Parameter["in"]) => parameters.filter((p) => p.in === location);
  const known = new Set(byLocation("query").map((p) => p.name));
  const validatePath = parameterAjv.compile(objectSchema(byLocation("path"), false));
  const validateQuery = parameterAjv.compile(objectSchema(byLocation("query"), false));
  const validateHeaders = parameterAjv.compile(objectSchema(byLocation("header"), true));
  const bodySpec = (spec.operation["requestBody"] as SpecNode | undefined)?.["content"] as
    Record<string, SpecNode> | undefined;
  const jsonSchema = bodySpec?.["application/json"]?.["schema"] as SpecNode | undefined;
  const validateBody: ValidateFunction | undefined = jsonSchema ? bodyAjv.compile(jsonSchema) : undefined;
  const bodyRequired = Boolean((spec.operation["requestBody"] as SpecNode | undefined)?.["required"]);

  return (request) => {
    const query = { ...(request.query as Record<string, unknown>) };
    const unknown = Object.keys(query).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Problem("400-04", `unknown query parameter: ${unknown.join(", ")}`, {
        errors: unknown.map((name) => ({
          type: "additionalProperties",
          detail: `${name} is not a parameter of this operation`,
          pointer: `/query/${name}`,
        })),
      });
    }
    const params = { ...(request.params as Record<string, unknown>) };
    const headers = { ...(request.headers as Record<string, unknown>) };
    const issues: ValidationIssue[] = [];
    if (!validatePath(params)) issues.push(...issuesOf(validatePath.errors, "path"));
    if (!validateQuery(query)) issues.push(...issuesOf(validateQuery.errors, "query"));
    if (!validateHeaders(headers)) issues.push(...issuesOf(validateHeaders.errors, "headers"));
    let body = request.body;
    if (validateBody) {
      if (body === undefined) {
        if (bodyRequired)
          issues.push({ type: "required", detail: "a JSON request body is required", pointer: "/body" });
      } else {
        body = structuredClone(body);
        if (!validateBody(body)) issues.push(...issuesOf(validateBody.errors, "body"));
      }
    }
    if (issues.length > 0) throw schemaMismatch(issues);
    return { params, query, body };
  };
}

/**
 * Compiles the check of a signed address (an operation without credentials): the query members the spec requires
 * must be there, else 400-02 names each missing one, as on any operation. Their values, like the rest of the
 * address, are the signature's to judge: a changed address is the handler's 403, not a schema error.
 */
export function compileSignedAddressValidator(
  spec: OperationSpec,
): (request: { params: unknown; query: unknown; body: unknown }) => ValidatedRequest {
  const required = spec.parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name);
  const validatePresence = parameterAjv.compile({ type: "object", required });
  return (request) => {
    const query = request.query as Record<string, unknown>;
    if (!validatePresence(query)) throw schemaMismatch(issuesOf(validatePresence.errors, "query"));
    return { params: request.params as Record<string, unknown>, query, body: request.body };
  };
}
