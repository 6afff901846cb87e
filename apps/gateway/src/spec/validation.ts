import { Problem, schemaMismatch } from "../problems.js";
import type { Operation as OperationSpec } from "@lrg/spec";
import { compileRequestCheck, compileSignedAddressCheck, type ReceivedRequest } from "@lrg/spec/request";

/** What a route receives once its request has passed the spec's schemas (query coerced to declared types). */
export interface ValidatedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * Compiles, once, the validators of one operation from the bundled spec (the one request checker of `@lrg/spec`):
 * path, query and header parameters and the JSON body. The returned function throws a 400 Problem (code 400-02, or
 * 400-04 for an undefined query parameter) listing every failing member, or answers the validated, coerced request.
 */
export function compileRequestValidator(spec: OperationSpec): (request: ReceivedRequest) => ValidatedRequest {
  const check = compileRequestCheck(spec);
  return (request) => {
    const { unknownQuery, issues, params, query, body } = check(request);
    if (unknownQuery.length > 0) {
      throw new Problem("400-04", `unknown query parameter: ${unknownQuery.join(", ")}`, {
        errors: unknownQuery.map((name) => ({
          type: "additionalProperties",
          detail: `${name} is not a parameter of this operation`,
          pointer: `/query/${name}`,
        })),
      });
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
  const check = compileSignedAddressCheck(spec);
  return (request) => {
    const { issues, params, query, body } = check({ ...request, headers: {} });
    if (issues.length > 0) throw schemaMismatch(issues);
    return { params, query, body };
  };
}
