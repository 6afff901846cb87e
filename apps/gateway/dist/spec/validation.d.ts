import type { OperationSpec } from "./openapi.js";
/** What a route receives once its request has passed the spec's schemas (query coerced to declared types). */
export interface ValidatedRequest {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    body: unknown;
}
/**
 * Compiles, once, the validators of one operation from the bundled spec: path, query and header parameters and
 * the JSON body. The returned function throws a 400 Problem (code 400-02, or 400-04 for an undefined query
 * parameter) listing every failing member, or answers the validated, coerced request.
 */
export declare function compileRequestValidator(spec: OperationSpec): (request: {
    params: unknown;
    query: unknown;
    headers: unknown;
    body: unknown;
}) => ValidatedRequest;
