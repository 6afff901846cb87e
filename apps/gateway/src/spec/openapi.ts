import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A JSON value of the bundled spec. */
export type SpecNode = Record<string, unknown>;

/** The bundled registry spec (dereferenced: every schema inline), as every consumer reads it. */
export const openapi = require("@lrg/spec/openapi.dereferenced.json") as SpecNode;
/** The bundled sandbox control plane spec (dereferenced). */
export const sandbox = require("@lrg/spec/sandbox.dereferenced.json") as SpecNode;

interface CatalogueEntry {
  status: number;
  title: string;
  when: string;
}

/** The problem code catalogue of the spec: the gateway's one error registry. */
export const problemCatalogue = openapi["x-lrg-problem-codes"] as Record<string, CatalogueEntry>;

/** A component schema of the registry spec (or of the sandbox spec), by name. */
export function componentSchema(name: string, document: SpecNode = openapi): SpecNode {
  const schemas = (document["components"] as { schemas: Record<string, SpecNode> }).schemas;
  const schema = schemas[name];
  if (!schema) throw new Error(`no component schema ${name} in the spec`);
  return schema;
}

/** One operation of a spec document, located by path and method. */
export interface OperationSpec {
  operationId: string;
  method: string;
  path: string;
  operation: SpecNode;
}

/** Every operation of a document, in document order. */
export function operationsOf(document: SpecNode): OperationSpec[] {
  const methods = ["get", "put", "post", "delete", "patch"];
  return Object.entries(document["paths"] as Record<string, SpecNode>).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => {
        const own = item[method] as SpecNode;
        // Parameters of the path item apply to each of its operations; an operation's own win (same name and place).
        const shared = (item["parameters"] ?? []) as SpecNode[];
        const ownParameters = (own["parameters"] ?? []) as SpecNode[];
        const key = (p: SpecNode) => `${String(p["in"])}:${String(p["name"])}`;
        const overridden = new Set(ownParameters.map(key));
        const operation: SpecNode = { ...own, parameters: [...shared.filter((p) => !overridden.has(key(p))), ...ownParameters] };
        return { operationId: String(operation["operationId"]), method, path, operation };
      }),
  );
}
