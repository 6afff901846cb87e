import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Problem } from "../problems.js";
function createAjv(coerceTypes) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, useDefaults: true, validateFormats: true });
    addFormats.default(ajv);
    return ajv;
}
// Parameters arrive as strings and are coerced to their declared types; bodies are checked as sent.
const parameterAjv = createAjv(true);
const bodyAjv = createAjv(false);
function issuesOf(errors, location) {
    return (errors ?? []).map((error) => {
        const missing = error.keyword === "required" ? `/${String(error.params.missingProperty)}` : "";
        return {
            type: error.keyword,
            detail: `${error.instancePath || location} ${error.message ?? "is invalid"}`.trim(),
            pointer: `/${location}${error.instancePath}${missing}`,
        };
    });
}
function objectSchema(parameters, lowerCaseNames) {
    const name = (p) => (lowerCaseNames ? p.name.toLowerCase() : p.name);
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
export function compileRequestValidator(spec) {
    const parameters = (spec.operation["parameters"] ?? []);
    const byLocation = (location) => parameters.filter((p) => p.in === location);
    const known = new Set(byLocation("query").map((p) => p.name));
    const validatePath = parameterAjv.compile(objectSchema(byLocation("path"), false));
    const validateQuery = parameterAjv.compile(objectSchema(byLocation("query"), false));
    const validateHeaders = parameterAjv.compile(objectSchema(byLocation("header"), true));
    const bodySpec = spec.operation["requestBody"]?.["content"];
    const jsonSchema = bodySpec?.["application/json"]?.["schema"];
    const validateBody = jsonSchema ? bodyAjv.compile(jsonSchema) : undefined;
    const bodyRequired = Boolean(spec.operation["requestBody"]?.["required"]);
    return (request) => {
        const query = { ...request.query };
        const unknown = Object.keys(query).filter((name) => !known.has(name));
        if (unknown.length > 0) {
            throw new Problem("400-04", `unknown query parameter: ${unknown.join(", ")}`, {
                errors: unknown.map((name) => ({ type: "additionalProperties", detail: `${name} is not a parameter of this operation`, pointer: `/query/${name}` })),
            });
        }
        const params = { ...request.params };
        const headers = { ...request.headers };
        const issues = [];
        if (!validatePath(params))
            issues.push(...issuesOf(validatePath.errors, "path"));
        if (!validateQuery(query))
            issues.push(...issuesOf(validateQuery.errors, "query"));
        if (!validateHeaders(headers))
            issues.push(...issuesOf(validateHeaders.errors, "headers"));
        let body = request.body;
        if (validateBody) {
            if (body === undefined || body === null) {
                if (bodyRequired)
                    issues.push({ type: "required", detail: "a JSON request body is required", pointer: "/body" });
            }
            else {
                body = structuredClone(body);
                if (!validateBody(body))
                    issues.push(...issuesOf(validateBody.errors, "body"));
            }
        }
        if (issues.length > 0)
            throw new Problem("400-02", "request does not match the schema", { errors: issues });
        return { params, query, body };
    };
}
//# sourceMappingURL=validation.js.map