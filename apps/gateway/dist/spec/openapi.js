import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
/** The bundled registry spec (dereferenced: every schema inline), as every consumer reads it. */
export const openapi = require("@lrg/spec/openapi.dereferenced.json");
/** The bundled sandbox control plane spec (dereferenced). */
export const sandbox = require("@lrg/spec/sandbox.dereferenced.json");
/** The problem code catalogue of the spec: the gateway's one error registry. */
export const problemCatalogue = openapi["x-lrg-problem-codes"];
/** A component schema of the registry spec, by name. */
export function componentSchema(name) {
    const schemas = openapi["components"].schemas;
    const schema = schemas[name];
    if (!schema)
        throw new Error(`no component schema ${name} in the spec`);
    return schema;
}
/** Every operation of a document, in document order. */
export function operationsOf(document) {
    const methods = ["get", "put", "post", "delete", "patch"];
    return Object.entries(document["paths"]).flatMap(([path, item]) => methods
        .filter((method) => item[method])
        .map((method) => {
        const operation = item[method];
        return { operationId: String(operation["operationId"]), method, path, operation };
    }));
}
//# sourceMappingURL=openapi.js.map