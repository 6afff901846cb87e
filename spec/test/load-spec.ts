// Shared loading of the bundled spec for the spec's own tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const dist = join(import.meta.dirname, "..", "dist");

/** Reads one bundled artifact of spec/dist as JSON. */
export function loadBundle(file: string): JsonObject {
  return JSON.parse(readFileSync(join(dist, file), "utf8")) as JsonObject;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

export interface OperationEntry {
  document: string;
  path: string;
  method: string;
  operation: JsonObject;
}

/** Every operation of a bundled document, with where it sits. */
export function operationsOf(document: string, spec: JsonObject): OperationEntry[] {
  const paths = spec["paths"] as Record<string, JsonObject>;
  return Object.entries(paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => ({
      document,
      path,
      method,
      operation: item[method] as JsonObject,
    })),
  );
}

/** A JSON Schema 2020-12 validator configured for OpenAPI 3.1 schemas (x- keywords and `example` ignored). */
export function createValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  return ajv;
}

/** Walks a JSON value depth first, calling `visit` with each object and its JSON pointer. */
export function walk(value: Json, visit: (node: JsonObject, pointer: string) => void, pointer = ""): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, visit, `${pointer}/${index}`));
  } else if (value !== null && typeof value === "object") {
    visit(value, pointer);
    for (const [key, child] of Object.entries(value)) {
      walk(child, visit, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  }
}
