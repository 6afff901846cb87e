// The spec's own examples, read from the dereferenced bundle: the tests answer what the spec documents.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve("@lrg/spec/openapi.dereferenced.json"), "utf8")) as {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
};

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  maxLength?: number;
  maximum?: number;
}

/** A bound of the spec, by component schema and property path: the client's restated limits are checked against it. */
export function specBound(schema: string, path: string[], bound: "maxLength" | "maximum"): number | undefined {
  let node: JsonSchema | undefined = spec.components.schemas[schema];
  for (const name of path) node = node?.properties?.[name];
  return node?.[bound];
}

interface OperationObject {
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
}

/** An example's value: of the request body (`status` "request") or of a response. */
export function specExample<T = unknown>(path: string, method: string, status: string, media: string, name: string): T {
  const operation = spec.paths[path]?.[method];
  const content = status === "request" ? operation?.requestBody?.content : operation?.responses[status]?.content;
  const example = content?.[media]?.examples?.[name];
  if (example === undefined) throw new Error(`no example ${name} for ${method} ${path} ${status} ${media}`);
  return structuredClone(example.value) as T;
}
